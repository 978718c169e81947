#!/usr/bin/python3
"""kafka-python 2.0.2 (Debian's python3-kafka) for the Java compat tests: one JSON argument in, one JSON object
per line out (stdout); kafka-python's DEBUG log on stderr, which names every request and version it sends
("Request 7: FetchRequest_v3(...)").

  version: {"mode": "version"}: prints kafka-python's version (plain text), for setup.sh.
  produce: {"mode": "produce", "brokers", "topic", "apiVersion": [0, 10, 1] or null (auto-detection),
            "compression": "gzip", "messages": [{"key", "value"}]}
           A KafkaProducer sends every message (partitioned by kafka-python's murmur2 of the key), flushes, and
           prints {"event": "apiVersion", "version"} (what it detected or was given), then
           {"event": "delivered", partition, offset, key, value} per message, in send order.
  consume: {"mode": "consume", "brokers", "topic", "group", "apiVersion", "expect"}
           A KafkaConsumer in the group (subscribe, auto.offset.reset earliest, no auto-commit) polls until it
           has at least `expect` messages (or 30 s pass), commits synchronously, prints each committed offset,
           and closes. Prints {"event": "apiVersion", "version"}, {"event": "message", partition, offset,
           key, value, timestamp, timestampType (0 CreateTime, 1 LogAppendTime)} per message, then
           {"event": "committed", partition, offset} per assigned partition.
"""
import json
import logging
import sys
import time


def import_kafka():
    """kafka-python 2.0.2 vendors a six whose moves importer Python 3.12 no longer runs (it uses find_module):
    `No module named 'kafka.vendor.six.moves'`. Debian's own six (python3-six) works: alias it there."""
    try:
        import kafka
        return kafka
    except ModuleNotFoundError as e:
        if "kafka.vendor.six" not in str(e):
            raise
    import six
    import six.moves
    sys.modules["kafka.vendor.six"] = six
    sys.modules["kafka.vendor.six.moves"] = six.moves
    for name in list(sys.modules):
        if name.startswith("kafka") and not name.startswith("kafka.vendor.six"):
            del sys.modules[name]
    import kafka
    return kafka


kafka = import_kafka()
from kafka import KafkaConsumer, KafkaProducer, TopicPartition  # noqa: E402


def emit(event):
    sys.stdout.write(json.dumps(event) + "\n")
    sys.stdout.flush()


def text(raw):
    return None if raw is None else raw.decode("utf-8")


def api_version(opts):
    v = opts.get("apiVersion")
    return None if v is None else tuple(v)


def produce(opts):
    producer = KafkaProducer(bootstrap_servers=opts["brokers"], api_version=api_version(opts),
                             compression_type=opts.get("compression"), linger_ms=50, acks="all",
                             request_timeout_ms=20000, max_block_ms=20000)
    emit({"event": "apiVersion", "version": list(producer.config["api_version"])})
    futures = []
    for m in opts["messages"]:
        futures.append((m, producer.send(opts["topic"], key=m["key"].encode("utf-8"),
                                         value=m["value"].encode("utf-8"))))
    producer.flush(30)
    for m, f in futures:
        md = f.get(timeout=30)
        emit({"event": "delivered", "partition": md.partition, "offset": md.offset, "key": m["key"],
              "value": m["value"]})
    producer.close(10)


def consume(opts):
    consumer = KafkaConsumer(opts["topic"], bootstrap_servers=opts["brokers"], api_version=api_version(opts),
                             group_id=opts["group"], enable_auto_commit=False, auto_offset_reset="earliest",
                             session_timeout_ms=10000, heartbeat_interval_ms=1000, request_timeout_ms=30000)
    emit({"event": "apiVersion", "version": list(consumer.config["api_version"])})
    received = 0
    deadline = time.time() + 30
    while received < opts["expect"] and time.time() < deadline:
        for tp, records in sorted(consumer.poll(timeout_ms=500).items()):
            for r in records:
                received += 1
                emit({"event": "message", "partition": r.partition, "offset": r.offset, "key": text(r.key),
                      "value": text(r.value), "timestamp": r.timestamp, "timestampType": r.timestamp_type})
    consumer.commit()
    for tp in sorted(consumer.assignment()):
        emit({"event": "committed", "partition": tp.partition, "offset": consumer.committed(tp)})
    consumer.close()


def main():
    opts = json.loads(sys.argv[1])
    if opts["mode"] == "version":
        print(kafka.__version__)
        return
    logging.basicConfig(stream=sys.stderr, level=logging.DEBUG,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    {"produce": produce, "consume": consume}[opts["mode"]](opts)
    emit({"event": "done"})


if __name__ == "__main__":
    main()
