-- PUT of reviews (about 400 characters of text) by distinct raters over 10,000 items
-- (bench/items.lua chooses them): every request is a new durable rating and review, as
-- put-ratings.lua's is a new rating.
local counter = 0
local run = os.getenv("BENCH_RUN") or "0"
local text = string.rep("The broth was deep and the noodles fresh; service was quick. ", 7)
request = function()
  counter = counter + 1
  local body = '{"stars":' .. (counter % 5 + 1) .. ',"title":"Review ' .. counter .. '","body":"' .. text .. counter ..
               '","language":"en-GB"}'
  return wrk.format("PUT", "/v1/items/bench-" .. next_item(counter) .. "/reviews/r" .. run .. "-" .. counter,
                    { ["Content-Type"] = "application/json" }, body)
end
