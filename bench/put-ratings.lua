-- PUT of ratings by distinct raters over 10,000 items (bench/items.lua chooses them): every
-- request is a new durable row.
local counter = 0
local run = os.getenv("BENCH_RUN") or "0"

request = function()
  counter = counter + 1
  local body = '{"stars":' .. (counter % 5 + 1) .. '}'
  return wrk.format("PUT", "/v1/items/bench-" .. next_item(counter) .. "/ratings/r" .. run .. "-" .. counter,
                    { ["Content-Type"] = "application/json" }, body)
end
