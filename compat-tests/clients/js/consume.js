'use strict'
// Runs `members` consumers of one group on one topic until they have received `expect` messages between
// them, waits `settleMs` more (anything extra would be a duplicate or a message it should not see), then
// disconnects them (which commits their offsets) and prints {"event":"done"}.
// With `partitions`, the group is "ready" once every member holds a share and the shares split the
// topic's partitions exactly; `produce` (a list of messages) is then sent by a producer, so nothing is
// consumed across a rebalance.
// Options: {brokers, topic, groupId, members: 1, expect, partitions?, produce?, fromBeginning: true,
//           readUncommitted: false (KafkaJS's default: read_committed), settleMs: 1000, timeoutMs: 40000,
//           ssl?, sasl? (see lib.js)}
// Prints: joined / ready / sent / message / done lines; see the Java test for their fields.
const { options, emit, kafka, text, headers, run } = require('./lib')

const opts = options()
const client = kafka(opts)
const memberCount = opts.members || 1
const settleMs = opts.settleMs === undefined ? 1000 : opts.settleMs

function splitsPartitions(assignments) {
  if (assignments.size < memberCount) {
    return false
  }
  const seen = []
  for (const partitions of assignments.values()) {
    if (partitions.length === 0) {
      return false
    }
    seen.push(...partitions)
  }
  seen.sort((a, b) => a - b)
  return seen.length === opts.partitions && seen.every((p, i) => p === i)
}

async function main() {
  const assignments = new Map()
  let ready
  const readyPromise = new Promise(resolve => { ready = resolve })
  let received = 0
  let reachedExpected
  const expectedPromise = new Promise(resolve => { reachedExpected = resolve })

  const consumers = []
  for (let member = 0; member < memberCount; member++) {
    const consumer = client.consumer({
      groupId: opts.groupId,
      sessionTimeout: 10000,
      rebalanceTimeout: 10000,
      heartbeatInterval: 500,
      maxWaitTimeInMs: 200,
      readUncommitted: opts.readUncommitted === true,
    })
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
      const partitions = payload.memberAssignment[opts.topic] || []
      assignments.set(member, partitions)
      emit({ event: 'joined', member, memberId: payload.memberId, isLeader: payload.isLeader, partitions })
      if (opts.partitions === undefined ? assignments.size === memberCount : splitsPartitions(assignments)) {
        ready()
      }
    })
    consumers.push(consumer)
  }

  try {
    for (const consumer of consumers) {
      await consumer.connect()
      await consumer.subscribe({ topics: [opts.topic], fromBeginning: opts.fromBeginning !== false })
    }
    consumers.forEach((consumer, member) => consumer.run({
      eachMessage: async ({ topic, partition, message }) => {
        emit({ event: 'message', member, topic, partition, offset: Number(message.offset),
          key: text(message.key), value: text(message.value), headers: headers(message.headers) })
        received++
        if (received >= opts.expect) {
          reachedExpected()
        }
      },
    }))
    await readyPromise
    emit({ event: 'ready', assignments: Object.fromEntries(assignments) })

    if (opts.produce) {
      const producer = client.producer({ allowAutoTopicCreation: false })
      await producer.connect()
      const result = await producer.send({ topic: opts.topic, acks: -1, messages: opts.produce })
      for (const r of result) {
        emit({ event: 'sent', topic: r.topicName, partition: r.partition, errorCode: r.errorCode,
          baseOffset: Number(r.baseOffset) })
      }
      await producer.disconnect()
    }
    if (opts.expect > 0) {
      await expectedPromise
    }
    await new Promise(resolve => setTimeout(resolve, settleMs))
  } finally {
    await Promise.all(consumers.map(c => c.disconnect()))
  }
  emit({ event: 'done', received })
}

run(main, opts.timeoutMs || 40000)
