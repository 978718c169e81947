'use strict'
// Sends messages with one producer.send() per entry of "sends" and prints each partition's result.
// Options: {brokers, topic, compression: "none"|"gzip", acks: -1, sends: [[{key, value, headers, partition}]],
//           ssl?, sasl? (see lib.js)}
const { CompressionTypes } = require('kafkajs')
const { options, emit, kafka, run } = require('./lib')

const opts = options()

async function main() {
  const producer = kafka(opts).producer({ allowAutoTopicCreation: false })
  await producer.connect()
  try {
    const compression = opts.compression === 'gzip' ? CompressionTypes.GZIP : CompressionTypes.None
    for (const messages of opts.sends) {
      const result = await producer.send({
        topic: opts.topic,
        acks: opts.acks === undefined ? -1 : opts.acks,
        compression,
        messages,
      })
      for (const r of result) {
        emit({ event: 'sent', topic: r.topicName, partition: r.partition, errorCode: r.errorCode,
          baseOffset: Number(r.baseOffset) })
      }
    }
  } finally {
    await producer.disconnect()
  }
}

run(main, opts.timeoutMs || 30000)
