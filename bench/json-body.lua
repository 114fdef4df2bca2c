-- PUT of one JSON body, read from the file BENCH_BODY names, to one rating; the body is built so
-- that the answer is a refusal (nothing is written), and the figure is the cost of reading it.
local file = assert(io.open(os.getenv("BENCH_BODY"), "rb"))
wrk.method = "PUT"
wrk.path = "/v1/items/bench-json/ratings/json-body"
wrk.headers["Content-Type"] = "application/json"
wrk.body = file:read("*a")
file:close()
