-- PUT of helpfulness votes by distinct voters on the reviews of 10,000 items, item bench-N's by
-- author-N (bench/items.lua chooses the items; benchlib's seed_reviews writes the reviews):
-- every request is a new durable vote and moves its review's counts.
local counter = 0
local run = os.getenv("BENCH_RUN") or "0"
request = function()
  counter = counter + 1
  local item = next_item(counter)
  local body = counter % 4 == 0 and '{"helpful":false}' or '{"helpful":true}'
  return wrk.format("PUT", "/v1/items/bench-" .. item .. "/reviews/author-" .. item .. "/votes/v" .. run .. "-" .. counter,
                    { ["Content-Type"] = "application/json" }, body)
end
