-- wrk script of the split-sandbox benchmark.
--   METHOD   GET or POST (default GET)
--   BODY     a JSON body (POST); "{SEQ}" in it becomes a fresh value per request
--   PATHS    a path template with "{N}": N counts up from FIRST_N, one per request (captures)
--   AUTH     the Authorization header value
--   CONNS    the connections wrk opens (-c); RAMP_MS how long their first requests wait (300)
-- Prints one line: BENCH {"requests":…,"rps":…,"p50_ms":…,"p90_ms":…,"p99_ms":…,"p999_ms":…,"max_ms":…,
--   "non2xx":…,"errors":…}. The percentiles are wrk's, which adds the answers a stalled connection
--   would have sent meanwhile (its correction for coordinated omission); max is the slowest answer.
wrk.method = os.getenv("METHOD") or "GET"
wrk.headers["Accept"] = "application/json"
local auth = os.getenv("AUTH")
if auth and auth ~= "" then wrk.headers["Authorization"] = auth end
local body = os.getenv("BODY")
if body and body ~= "" then
  wrk.headers["Content-Type"] = "application/json"
  wrk.body = body
end
local paths = os.getenv("PATHS")
local n = tonumber(os.getenv("FIRST_N") or "1")
local seq = 0
-- Each wrk run numbers its bodies under its own prefix: a warm-up and the measured run that
-- follows it never send the same MerchantTransactionID.
math.randomseed(os.time())
local run = tostring(os.time()) .. "r" .. tostring(math.random(1, 1000000))

request = function()
  seq = seq + 1
  local path = nil
  if paths and paths ~= "" then
    path = paths:gsub("{N}", tostring(n))
    n = n + 1
  end
  local b = nil
  if wrk.body and wrk.body:find("{SEQ}", 1, true) then b = wrk.body:gsub("{SEQ}", run .. "-" .. tostring(seq)) end
  return wrk.format(nil, path, nil, b)
end

-- wrk opens its connections and sends their first requests all at once, then measures from there.
-- Node accepts one connection per turn of its event loop (libuv 1.45 and later), so a server under
-- this load accepts the last of 32 connections some 30 turns later: its first answer took 200-300 ms
-- for any Node server (a bare node:http one too), which measured the ramp-up of wrk, not an answer.
-- Each connection's first request waits RAMP_MS instead, while the server accepts them all; what is
-- measured is requests on open connections, and the requests per second count the time after the wait.
local conns = tonumber(os.getenv("CONNS") or "32")
local ramp_ms = tonumber(os.getenv("RAMP_MS") or "300")
local delays = 0
function delay()
  delays = delays + 1
  if delays <= conns then return ramp_ms end
  return 0
end

function done(summary, latency, requests)
  local e = summary.errors
  local secs = summary.duration / 1e6 - ramp_ms / 1000
  io.write(string.format(
    'BENCH {"requests":%d,"rps":%.1f,"p50_ms":%.3f,"p90_ms":%.3f,"p99_ms":%.3f,"p999_ms":%.3f,"max_ms":%.3f,"non2xx":%d,"errors":%d}\n',
    summary.requests, summary.requests / secs, latency:percentile(50) / 1000, latency:percentile(90) / 1000,
    latency:percentile(99) / 1000, latency:percentile(99.9) / 1000, latency.max / 1000,
    e.status, e.connect + e.read + e.write + e.timeout))
end
