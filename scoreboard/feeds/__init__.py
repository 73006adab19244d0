"""Feeds: adapters that turn outside input (simulated shoe, MQTT) into table events."""
