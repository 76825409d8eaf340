'use strict'
// The overload harness's standard load generator: autocannon (Node), the same streams as
// OverloadClient and the same output, so that benchmarks/overload.sh measures what users meet with
// a load generator they run, on the same cores as the service.
//
//   node benchmarks/autocannon-client.js http://127.0.0.1:PORT SECONDS DEADLINE_MS STREAM...
//
// A stream is closed=PATH@CLIENTS (that many connections, each sending its next request the
// moment it has an answer) or open=PATH@RATE. An open stream is OPEN_SPREAD autocannon instances
// with overallRate, each a share of the rate, started 1000/OPEN_SPREAD ms apart: one autocannon
// sends each second's requests at its start (each connection's rate is counted per second from
// when it connected), so that "40 a second" arrives as a burst of 40 and measures autocannon's
// clock, not the load; spread over the second, the stream arrives as independent callers do.
// Each instance has enough connections that every request of its second can wait out its
// deadline, at most 1000 in all. A stepped open stream (RATE>RATE2) is not autocannon's and is
// refused. Every request carries the client deadline in
// x-envoy-expected-rq-timeout-ms and is given up after it (autocannon's timeout, whole seconds).
//
// Prints one tab-separated line per stream: kind, path, sent, live, fallback (2xx marked
// X-Degraded), refused (503 or 429), timeouts, errors, and the p50 and p99 in ms of live answers,
// fallbacks and refusals, as autocannon timed them (from the request's write to its answer's
// end); then client_cpu_seconds, this process's CPU. To stderr it also prints how late Node's
// event loop ran its callbacks over the run (p50, p99 and max, in ms): autocannon times an answer
// when its callback runs, so a busy loop adds up to that much to every figure it reports.
// Loopback only; bounded in time.
const autocannon = require('autocannon')
const { monitorEventLoopDelay } = require('perf_hooks')

const loopDelay = monitorEventLoopDelay({ resolution: 10 })
loopDelay.enable()

const [base, secondsArg, deadlineArg, ...streamArgs] = process.argv.slice(2)
const url = new URL(base)
if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') {
  throw new Error(`The harness sends traffic to loopback only, not to ${url.hostname}`)
}
const seconds = Number(secondsArg)
const deadlineMs = Number(deadlineArg)
const MAX_CONNECTIONS = 1000
const OPEN_SPREAD = 40

function tally () {
  return { live: [], fallback: [], refused: [], timeouts: 0, errors: 0 }
}

function run (stream) {
  const [kind, spec] = stream.split('=')
  const at = spec.lastIndexOf('@')
  const path = spec.slice(0, at)
  const amount = spec.slice(at + 1)
  if (amount.includes('>')) {
    throw new Error(`autocannon has no stepped rate: ${stream}`)
  }
  const counts = tally()
  if (kind === 'closed') {
    return launch(path, { connections: Number(amount) }, seconds, counts).then(() => ({ kind, path, counts }))
  }
  if (kind !== 'open') {
    throw new Error(`unknown stream ${stream}`)
  }
  const rate = Math.round(Number(amount))
  const instances = Math.max(1, Math.min(OPEN_SPREAD, rate))
  const launches = []
  for (let i = 0; i < instances; i++) {
    // The integer shares of the rate, the larger ones first.
    const share = Math.floor(rate / instances) + (i < rate % instances ? 1 : 0)
    const connections = Math.min(Math.floor(MAX_CONNECTIONS / instances),
      Math.max(1, Math.ceil(share * deadlineMs / 1000)))
    const offsetMs = (i * 1000) / instances
    launches.push(new Promise((resolve) => setTimeout(resolve, offsetMs)).then(() =>
      launch(path, { overallRate: share, connections }, seconds - offsetMs / 1000, counts)))
  }
  return Promise.all(launches).then(() => ({ kind, path, counts }))
}

function launch (path, load, duration, counts) {
  const options = Object.assign({
    url: base + path,
    duration,
    timeout: Math.max(1, Math.round(deadlineMs / 1000)),
    headers: { 'x-envoy-expected-rq-timeout-ms': String(deadlineMs) },
    pipelining: 1
  }, load)
  options.setupClient = (client) => {
    // autocannon keeps its queue of requests in flight across a reconnect: after a server closes
    // the connection (Tomcat does after every 503), the request written on the closing connection
    // is never answered, and each later answer would be timed from an earlier request's start.
    // Cleared at each (re)connect, every answer is timed from its own request.
    const connect = client._connect
    client._connect = function () {
      this.pipelinedRequests.clear()
      return connect.call(this)
    }
    let degraded = false
    client.on('headers', (response) => {
      degraded = false
      const headers = response.headers || []
      for (let i = 0; i < headers.length; i += 2) {
        if (String(headers[i]).toLowerCase() === 'x-degraded') {
          degraded = true
        }
      }
    })
    client.on('response', (status, bytes, millis) => {
      if (status === 503 || status === 429) {
        counts.refused.push(millis)
      } else if (status >= 200 && status < 300) {
        (degraded ? counts.fallback : counts.live).push(millis)
      } else {
        counts.errors++
      }
    })
    client.on('timeout', () => { counts.timeouts++ })
    client.on('connError', () => { counts.errors++ })
  }
  return new Promise((resolve, reject) => {
    autocannon(options, (error) => error ? reject(error) : resolve())
  })
}

function quantile (sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]
}

function percentiles (millis) {
  if (millis.length === 0) {
    return '-\t-'
  }
  const sorted = Float64Array.from(millis).sort()
  return `${quantile(sorted, 0.5).toFixed(1)}\t${quantile(sorted, 0.99).toFixed(1)}`
}

Promise.all(streamArgs.map(run)).then((results) => {
  for (const { kind, path, counts } of results) {
    const sent = counts.live.length + counts.fallback.length + counts.refused.length + counts.timeouts + counts.errors
    console.log([kind, path, sent, counts.live.length, counts.fallback.length, counts.refused.length,
      counts.timeouts, counts.errors, percentiles(counts.live), percentiles(counts.fallback),
      percentiles(counts.refused)].join('\t'))
  }
  const cpu = process.cpuUsage()
  console.log(`client_cpu_seconds\t${((cpu.user + cpu.system) / 1e6).toFixed(2)}`)
  loopDelay.disable()
  // The histogram counts the 10 ms of its own timer's resolution in every sample.
  const late = (nanos) => Math.max(0, nanos / 1e6 - 10).toFixed(1)
  console.error(`autocannon's event loop ran late by p50 ${late(loopDelay.percentile(50))}, ` +
    `p99 ${late(loopDelay.percentile(99))}, max ${late(loopDelay.max)} ms`)
}).catch((error) => {
  console.error(error)
  process.exit(1)
})
