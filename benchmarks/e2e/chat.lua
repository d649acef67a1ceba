-- wrk script for the end-to-end benchmark: POST a request (a chat completion, a response, an embedding: the URL and
-- the body say which) and print one parseable line.
-- Settings come from the environment so one script serves every case:
--   BENCH_BODY  the JSON request body
--   BENCH_AUTH  an Authorization header value, or empty (the fake upstream needs none)
wrk.method = "POST"
wrk.body = os.getenv("BENCH_BODY")
wrk.headers["Content-Type"] = "application/json"
local auth = os.getenv("BENCH_AUTH")
if auth ~= nil and auth ~= "" then
  wrk.headers["Authorization"] = auth
end

-- Runs once after the test: throughput, latency percentiles in microseconds and every kind of error.
-- errors.status counts answers that were not 2xx or 3xx: a gateway that refuses fast must not look fast.
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "WRK requests=%d duration_us=%d rps=%.1f p50_us=%d p90_us=%d p99_us=%d errors=%d non2xx=%d\n",
    summary.requests, summary.duration, summary.requests / (summary.duration / 1e6),
    latency:percentile(50), latency:percentile(90), latency:percentile(99),
    e.connect + e.read + e.write + e.timeout, e.status))
end
