-- Prints one machine-readable line when wrk is done:
-- RESULT <requests/s> <p50 ms> <p90 ms> <p99 ms> <requests> <errors, non-2xx/3xx included>
done = function(summary, latency, requests)
	local errors = summary.errors.connect + summary.errors.read + summary.errors.write
		+ summary.errors.status + summary.errors.timeout
	io.write(string.format("RESULT %.1f %.3f %.3f %.3f %d %d\n",
		summary.requests / (summary.duration / 1000000),
		latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
		summary.requests, errors))
end
