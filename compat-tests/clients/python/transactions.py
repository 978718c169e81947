#!/usr/bin/python3
"""Transactions (and plain sends) with confluent-kafka-python (Debian's python3-confluent-kafka on librdkafka),
for the Java compat tests: one JSON argument in, one JSON object per line out (stdout); librdkafka's debug log on stderr.

  produce: {"mode": "produce", "brokers", "transactionalId", "transactions": [{"commit": bool,
            "messages": [{"topic", "partition", "key", "value"}],
            "offsets": {"group", "positions": [{"topic", "partition", "offset"}]} (optional)}]}
           Runs init_transactions, then per transaction begin / produce / flush / send_offsets_to_transaction
           (AddOffsetsToTxn, TxnOffsetCommit) / commit or abort.
           Prints {"event": "delivered", topic, partition, offset, key, value, error} per message and
           {"event": "committed"} or {"event": "aborted"} per transaction.
  fence:   {"mode": "fence", "brokers", "transactionalId", "topic"}
           A producer writes "zombie" to partition 0 in an open transaction; a second producer with the same
           transactional.id initialises (fencing the first and aborting its transaction), writes "successor"
           and commits; then the first tries to commit. Prints {"event": "delivered", ...} per message,
           {"event": "committed"} for the successor and {"event": "fenced", name, fatal, retriable,
           abortable} with the error the zombie's commit raised.
  send:    {"mode": "send", "brokers", "messages": [{"topic", "partition", "key", "value"}]}
           A plain (idempotent) producer sends the messages and flushes; {"event": "delivered", ...} per message.
  metadata: {"mode": "metadata", "brokers", "timeoutS": 3}
           Asks for the cluster's metadata: {"event": "metadata", "topics": [...]} or {"event": "metadataFailed",
           name, message}, then {"event": "clientError", name, message} for each error librdkafka reported
           (e.g. _AUTHENTICATION with the broker's message).
  Every mode takes "config": librdkafka settings added to the client's (security.protocol, sasl.*, ssl.*).
  consume: {"mode": "consume", "brokers", "topic", "partitions", "isolation": "read_committed"}
           Assigns every partition from the beginning and reads to the end of each (partition EOF).
           Prints {"event": "watermarks", partition, low, high} (high: the last stable offset under
           read_committed), then {"event": "message", partition, offset, key, value} per message.
"""
import json
import sys
import time

from confluent_kafka import Consumer, KafkaError, KafkaException, Producer, TopicPartition, OFFSET_BEGINNING

DEBUG = "protocol,broker,eos,msg"


def emit(event):
    sys.stdout.write(json.dumps(event) + "\n")
    sys.stdout.flush()


def text(raw):
    return None if raw is None else raw.decode("utf-8")


def client_config(opts, config):
    """The client's own settings plus the test's "config" (security.protocol, sasl.*, ssl.ca.location, ...)."""
    merged = dict(config)
    merged["bootstrap.servers"] = ",".join(opts["brokers"])
    merged.update(opts.get("config", {}))
    return merged


def client_error(err):
    emit({"event": "clientError", "name": err.name(), "message": err.str()})


def transactional_producer(opts):
    return Producer(client_config(opts, {
        "transactional.id": opts["transactionalId"],
        "transaction.timeout.ms": opts.get("transactionTimeoutMs", 60000),
        "debug": DEBUG,
    }))


def delivered(err, msg):
    emit({"event": "delivered", "topic": msg.topic(), "partition": msg.partition(), "offset": msg.offset(),
          "key": text(msg.key()), "value": text(msg.value()), "error": None if err is None else str(err)})


def produce(opts):
    producer = transactional_producer(opts)

    producer.init_transactions(30)
    for txn in opts["transactions"]:
        producer.begin_transaction()
        for m in txn["messages"]:
            producer.produce(m["topic"], key=m["key"], value=m["value"], partition=m["partition"],
                             on_delivery=delivered)
        # Written to the log before the outcome is decided, so an abort leaves records behind its marker.
        remaining = producer.flush(30)
        if remaining:
            raise RuntimeError("%d messages not delivered within 30 s" % remaining)
        if "offsets" in txn:
            send_offsets(producer, opts, txn["offsets"])
        if txn["commit"]:
            producer.commit_transaction(30)
            emit({"event": "committed"})
        else:
            producer.abort_transaction(30)
            emit({"event": "aborted"})


def fence(opts):
    zombie = transactional_producer(opts)
    zombie.init_transactions(30)
    zombie.begin_transaction()
    zombie.produce(opts["topic"], key="z", value="zombie", partition=0, on_delivery=delivered)
    zombie.flush(30)
    successor = transactional_producer(opts)
    successor.init_transactions(30)
    successor.begin_transaction()
    successor.produce(opts["topic"], key="s", value="successor", partition=0, on_delivery=delivered)
    successor.commit_transaction(30)
    emit({"event": "committed"})
    try:
        zombie.commit_transaction(30)
        emit({"event": "zombieCommitted"})
    except KafkaException as e:
        err = e.args[0]
        emit({"event": "fenced", "name": err.name(), "fatal": err.fatal(), "retriable": err.retriable(),
              "abortable": err.txn_requires_abort()})


def send_offsets(producer, opts, offsets):
    """Offsets for a group this process does not join (generation -1, as a Java ConsumerGroupMetadata(id))."""
    consumer = Consumer(client_config(opts, {"group.id": offsets["group"]}))
    try:
        positions = [TopicPartition(p["topic"], p["partition"], p["offset"]) for p in offsets["positions"]]
        producer.send_offsets_to_transaction(positions, consumer.consumer_group_metadata(), 30)
        emit({"event": "offsetsSent", "group": offsets["group"]})
    finally:
        consumer.close()


def consume(opts):
    consumer = Consumer(client_config(opts, {
        "group.id": "python-reader-unused",  # required by the client; offsets are assigned, never committed
        "enable.auto.commit": False,
        "enable.partition.eof": True,
        "isolation.level": opts["isolation"],
        "debug": DEBUG,
    }))
    partitions = [TopicPartition(opts["topic"], p, OFFSET_BEGINNING) for p in range(opts["partitions"])]
    for tp in partitions:
        low, high = consumer.get_watermark_offsets(TopicPartition(tp.topic, tp.partition), timeout=30)
        emit({"event": "watermarks", "partition": tp.partition, "low": low, "high": high})
    consumer.assign(partitions)
    at_end = set()
    deadline = time.monotonic() + opts.get("timeoutS", 30)
    while len(at_end) < len(partitions):
        if time.monotonic() > deadline:
            raise RuntimeError("did not reach the end of partitions %s" % sorted(
                set(range(opts["partitions"])) - at_end))
        msg = consumer.poll(0.2)
        if msg is None:
            continue
        if msg.error():
            if msg.error().code() == KafkaError._PARTITION_EOF:
                at_end.add(msg.partition())
                continue
            raise RuntimeError(str(msg.error()))
        emit({"event": "message", "partition": msg.partition(), "offset": msg.offset(),
              "key": text(msg.key()), "value": text(msg.value())})
    consumer.close()


def send(opts):
    producer = Producer(client_config(opts, {"debug": DEBUG, "error_cb": client_error}))
    for m in opts["messages"]:
        producer.produce(m["topic"], key=m["key"], value=m["value"], partition=m["partition"], on_delivery=delivered)
    left = producer.flush(30)
    if left:
        raise RuntimeError("%d messages not delivered in 30 s" % left)


def metadata(opts):
    producer = Producer(client_config(opts, {"debug": DEBUG, "error_cb": client_error}))
    try:
        topics = producer.list_topics(timeout=opts.get("timeoutS", 3)).topics
        emit({"event": "metadata", "topics": sorted(topics)})
    except KafkaException as e:
        emit({"event": "metadataFailed", "name": e.args[0].name(), "message": e.args[0].str()})
    producer.poll(0.5)  # serves error_cb for what happened meanwhile


def main():
    opts = json.loads(sys.argv[1])
    try:
        {"produce": produce, "fence": fence, "consume": consume, "send": send,
         "metadata": metadata}[opts["mode"]](opts)
    except Exception as e:  # reported as an event, and as the exit status
        emit({"event": "error", "message": repr(e)})
        sys.exit(1)
    emit({"event": "done"})


if __name__ == "__main__":
    main()
