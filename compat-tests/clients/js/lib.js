'use strict'
// Shared by the scripts the Java compat tests run: the test passes one JSON argument, the script prints
// one JSON object per line on stdout (what the test asserts on) and KafkaJS's own log on stderr.
const { Kafka, logLevel } = require('kafkajs')

function options() {
  if (process.argv.length < 3) {
    throw new Error(`usage: node ${process.argv[1]} '<json options>'`)
  }
  return JSON.parse(process.argv[2])
}

function emit(event) {
  process.stdout.write(JSON.stringify(event) + '\n')
}

// KafkaJS's default logger writes to stdout; ours writes to stderr so stdout stays JSON.
// DEBUG shows every request with its API and version, e.g. "Request Produce(key: 0, version: 7)".
function stderrLogger() {
  return ({ namespace, level, label, log }) => {
    const { message, timestamp, ...extra } = log
    process.stderr.write(`${timestamp} ${label} [${namespace}] ${message} ${JSON.stringify(extra)}\n`)
  }
}

function kafka(opts) {
  return new Kafka({
    clientId: opts.clientId || 'odradek-compat',
    brokers: opts.brokers,
    logLevel: logLevel[(process.env.KAFKAJS_LOG_LEVEL || 'DEBUG').toUpperCase()],
    logCreator: stderrLogger,
    connectionTimeout: 5000,
    requestTimeout: 15000,
    retry: { retries: 5, initialRetryTime: 200 },
    // Optional security, as KafkaJS takes it: ssl {ca: [PEM]} (tls.connect options), sasl {mechanism, username,
    // password}; both unset means PLAINTEXT.
    ssl: opts.ssl,
    sasl: opts.sasl,
  })
}

function text(buffer) {
  return buffer === null || buffer === undefined ? null : buffer.toString('utf8')
}

// Consumed headers are Buffers, or arrays of Buffers when a key repeats.
function headers(raw) {
  const out = {}
  for (const [k, v] of Object.entries(raw || {})) {
    out[k] = Array.isArray(v) ? v.map(text) : text(v)
  }
  return out
}

// Runs main and exits 0, or prints {"event":"error"} and exits 1, within the deadline.
function run(main, timeoutMs) {
  const timer = setTimeout(() => {
    emit({ event: 'error', message: `timed out after ${timeoutMs} ms` })
    process.exit(2)
  }, timeoutMs)
  main()
    .then(() => {
      clearTimeout(timer)
      process.exit(0)
    })
    .catch(e => {
      emit({ event: 'error', message: String((e && e.stack) || e) })
      process.exit(1)
    })
}

module.exports = { options, emit, kafka, text, headers, run }
