"""JSON Schemas of every MQTT payload (protocol v2; v1 still read), shipped for controller
vendors: docs/protocol.md links each and shows an example that validates."""
