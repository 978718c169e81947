'use strict'
// A transactional producer (idempotent, one request in flight, as KafkaJS requires for transactions) that
// runs each entry of "transactions" as one transaction: producer.transaction(), one send() per list in
// "sends", then commit() or abort(). KafkaJS speaks transaction protocol v1 (AddPartitionsToTxn, EndTxn v0).
// Options: {brokers, topic, transactionalId, transactionTimeout: 60000,
//           transactions: [{commit: true|false, sends: [[{key, value, partition}]],
//                           offsets?: {consumerGroupId, topics: [{topic, partitions: [{partition, offset}]}]}}]}
// "offsets" goes through transaction.sendOffsets (AddOffsetsToTxn, then TxnOffsetCommit to the group's
// coordinator) before the commit or abort.
// Prints: {"event":"sent", ...} per partition result of each send, {"event":"offsetsSent"} and
// {"event":"committed"|"aborted"} per transaction.
const { options, emit, kafka, run } = require('./lib')

const opts = options()

async function main() {
  const producer = kafka(opts).producer({
    allowAutoTopicCreation: false,
    idempotent: true,
    maxInFlightRequests: 1,
    transactionalId: opts.transactionalId,
    transactionTimeout: opts.transactionTimeout || 60000,
  })
  await producer.connect()
  try {
    for (const txn of opts.transactions) {
      const transaction = await producer.transaction()
      try {
        for (const messages of txn.sends) {
          const result = await transaction.send({ topic: opts.topic, acks: -1, messages })
          for (const r of result) {
            emit({ event: 'sent', topic: r.topicName, partition: r.partition, errorCode: r.errorCode,
              baseOffset: Number(r.baseOffset) })
          }
        }
        if (txn.offsets) {
          await transaction.sendOffsets(txn.offsets)
          emit({ event: 'offsetsSent', consumerGroupId: txn.offsets.consumerGroupId })
        }
      } catch (e) {
        await transaction.abort()
        throw e
      }
      if (txn.commit) {
        await transaction.commit()
        emit({ event: 'committed' })
      } else {
        await transaction.abort()
        emit({ event: 'aborted' })
      }
    }
  } finally {
    await producer.disconnect()
  }
}

run(main, opts.timeoutMs || 40000)
