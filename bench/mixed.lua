-- 90 % GET of a random item's summary, 10 % PUT of a new rating.
local counter = 0
local run = os.getenv("BENCH_RUN") or "0"
math.randomseed(42)
request = function()
  counter = counter + 1
  local item = math.random(0, 9999)
  if counter % 10 == 0 then
    return wrk.format("PUT", "/v1/items/bench-" .. item .. "/ratings/m" .. run .. "-" .. counter,
                      { ["Content-Type"] = "application/json" }, '{"stars":' .. (counter % 5 + 1) .. '}')
  end
  return wrk.format("GET", "/v1/items/bench-" .. item)
end
