"""The one MQTT link over paho: the only room that imports paho.

Public: ``client`` (:class:`Link`, shared by the display, the lobby, the simulated
controller and the shoe bridge).  Private: ``_backoff`` (full-jitter reconnect
delays), ``_failover`` (moving along a list of brokers), ``_failure`` (why a
connection failed, in a technician's words) and ``_ping`` (leaving a broker that
stops answering).
"""
