-- How the write scenarios choose among 10,000 items, prepended to every scenario by
-- bench/benchlib.py. BENCH_ITEMS: "random" (uniform, the default: users rate items in no order),
-- "zipf" (popularity with s = 1.01, the first item the most rated) or "sequential" (counter %
-- 10000, neighbouring pages in every group commit, which flatters any engine), drawn as
-- bench/sqlite-ceiling.c and bench/pgbench-write.sql draw them.
local item_pattern = os.getenv("BENCH_ITEMS") or "random"
local item_count = 10000

-- Zipf's cumulative weights, 1/k^s for ranks 1..item_count, drawn by binary search.
local cumulative = {}
if item_pattern == "zipf" then
  local total = 0
  for k = 1, item_count do
    total = total + 1 / k ^ 1.01
    cumulative[k] = total
  end
  for k = 1, item_count do cumulative[k] = cumulative[k] / total end
end

local function zipf()
  local u, low, high = math.random(), 1, item_count
  while low < high do
    local middle = math.floor((low + high) / 2)
    if cumulative[middle] < u then low = middle + 1 else high = middle end
  end
  return low - 1
end

-- The item of the scenario's `counter`-th request.
function next_item(counter)
  if item_pattern == "random" then return math.random(0, item_count - 1) end
  if item_pattern == "zipf" then return zipf() end
  return counter % item_count
end

math.randomseed(os.time() + #(os.getenv("BENCH_RUN") or ""))
