-- PUT of ratings by distinct raters over 10,000 items: every request is a new durable row.
-- BENCH_ITEMS chooses the items: "sequential" (counter % 10000, neighbouring pages in every group
-- commit), "random" (uniform) or "zipf" (popularity with s = 1.01, the first item the most
-- rated), drawn as bench/sqlite-ceiling.c and bench/pgbench-write.sql draw them.
local counter = 0
local run = os.getenv("BENCH_RUN") or "0"
local pattern = os.getenv("BENCH_ITEMS") or "sequential"
local items = 10000

-- Zipf's cumulative weights, 1/k^s for ranks 1..items, drawn by binary search.
local cumulative = {}
if pattern == "zipf" then
  local total = 0
  for k = 1, items do
    total = total + 1 / k ^ 1.01
    cumulative[k] = total
  end
  for k = 1, items do cumulative[k] = cumulative[k] / total end
end

local function zipf()
  local u, low, high = math.random(), 1, items
  while low < high do
    local middle = math.floor((low + high) / 2)
    if cumulative[middle] < u then low = middle + 1 else high = middle end
  end
  return low - 1
end

local function next_item()
  if pattern == "random" then return math.random(0, items - 1) end
  if pattern == "zipf" then return zipf() end
  return counter % items
end

math.randomseed(os.time() + #run)

request = function()
  counter = counter + 1
  local item = next_item()
  local body = '{"stars":' .. (counter % 5 + 1) .. '}'
  return wrk.format("PUT", "/v1/items/bench-" .. item .. "/ratings/r" .. run .. "-" .. counter,
                    { ["Content-Type"] = "application/json" }, body)
end
