-- wrk script of the serve step's overload cell: counts the answers by status, and the 503s that came without a
-- Retry-After header, in each thread; done() prints the totals, which ServeStep parses (serve.Statuses).
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  statuses = {}
  no_retry_after = 0
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  if status == 503 then
    local found = false
    for name, _ in pairs(headers) do
      if string.lower(name) == "retry-after" then
        found = true
      end
    end
    if not found then
      no_retry_after = no_retry_after + 1
    end
  end
end

function done(summary, latency, requests)
  local total, missing = {}, 0
  for _, thread in ipairs(threads) do
    for status, n in pairs(thread:get("statuses")) do
      total[status] = (total[status] or 0) + n
    end
    missing = missing + thread:get("no_retry_after")
  end
  local codes = {}
  for status, _ in pairs(total) do
    table.insert(codes, status)
  end
  table.sort(codes)
  local line = "statuses:"
  for _, status in ipairs(codes) do
    line = line .. " " .. status .. "=" .. total[status]
  end
  print(line)
  print("503 without Retry-After: " .. missing)
end
