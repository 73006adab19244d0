"""JSON Schemas of every MQTT payload (protocol v1), shipped for controller vendors."""
