-- GET of a batch of 20 summaries.
local ids = {}
for i = 1, 20 do ids[i] = "bench-" .. (i * 37) end
local path = "/v1/items?ids=" .. table.concat(ids, ",")
request = function() return wrk.format("GET", path) end
