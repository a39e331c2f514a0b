-- wrk script for ClusterRates (org.medjava.store.server.bench): one request kind per run, chosen by the first argument.
--   wrk ... -s cluster-rates.lua URL -- MODE TEMPLATE PATH CELL AUTH
-- MODE     get  : GET PATH (the same object every time)
--          put  : PUT a new copy of TEMPLATE to PATH/CELL/THREAD/N.dcm (the store's ingest through its HTTP API)
--          stow : POST a new copy to PATH as STOW-RS (multipart/related, one instance per request)
--          post : POST a new copy to PATH as the raw body (Orthanc's POST /instances)
-- TEMPLATE CT_small.dcm; every copy gets new SOP Instance UIDs (both the file meta and the data set's), and each
--          (cell, thread) its own study and series, by replacing the last 20 characters of the template's UIDs
--          ("20040119072730.12322") with as many digits: same lengths, so no element length changes.
-- CELL     a number unique in the run (3 digits): the UIDs and paths of one wrk run never meet another's.
-- AUTH     an Authorization header value, or "-" for none.
-- done() prints one line "RESULT key=value ..." that ClusterRates parses.

local TAIL = "20040119072730.12322"
local SOP = "1.3.6.1.4.1.5962.1.1.1.1.1." .. TAIL
local STUDY = "1.3.6.1.4.1.5962.1.2.1." .. TAIL
local SERIES = "1.3.6.1.4.1.5962.1.3.1.1." .. TAIL
local BOUNDARY = "cluster-rates-boundary"

local next_id = 0
function setup(thread)
   next_id = next_id + 1
   thread:set("tid", next_id)
end

local function replace_plain(s, old, new)
   local out, from = {}, 1
   while true do
      local i, j = string.find(s, old, from, true)
      if not i then break end
      out[#out + 1] = string.sub(s, from, i - 1)
      out[#out + 1] = new
      from = j + 1
   end
   out[#out + 1] = string.sub(s, from)
   return table.concat(out)
end

local function split_plain(s, sep)
   local parts, from = {}, 1
   while true do
      local i, j = string.find(s, sep, from, true)
      if not i then break end
      parts[#parts + 1] = string.sub(s, from, i - 1)
      from = j + 1
   end
   parts[#parts + 1] = string.sub(s, from)
   return parts
end

local mode, path, cell, headers, pieces, fixed
local counter = 0

function init(args)
   mode, path, cell = args[1], args[3], tonumber(args[4])
   headers = {}
   if args[5] and args[5] ~= "-" then
      headers["Authorization"] = args[5]
   end
   if mode == "get" then
      fixed = wrk.format("GET", path, headers)
      return
   end
   local f = assert(io.open(args[2], "rb"))
   local template = f:read("*a")
   f:close()
   local t = tid or 0
   local own = string.format("9%03d%02d%014d", cell, t, 0)
   template = replace_plain(template, STUDY, "1.3.6.1.4.1.5962.1.2.1." .. own)
   template = replace_plain(template, SERIES, "1.3.6.1.4.1.5962.1.3.1.1." .. own)
   -- the pieces between the SOP Instance UID's occurrences (file meta and data set)
   pieces = split_plain(template, SOP)
   assert(#pieces == 3, "CT_small.dcm should hold its SOP Instance UID twice, found " .. (#pieces - 1))
   if mode == "stow" then
      headers["Content-Type"] = 'multipart/related; type="application/dicom"; boundary=' .. BOUNDARY
      headers["Accept"] = "application/dicom+json"
   else
      headers["Content-Type"] = "application/dicom"
   end
end

function request()
   if fixed then
      return fixed
   end
   counter = counter + 1
   local t = tid or 0
   local uid = "1.3.6.1.4.1.5962.1.1.1.1.1." .. string.format("9%03d%02d%014d", cell, t, counter)
   local dicom = pieces[1] .. uid .. pieces[2] .. uid .. pieces[3]
   if mode == "put" then
      return wrk.format("PUT", string.format("%s/%03d/%02d/%d.dcm", path, cell, t, counter), headers, dicom)
   elseif mode == "stow" then
      local body = "--" .. BOUNDARY .. "\r\nContent-Type: application/dicom\r\n\r\n" .. dicom
         .. "\r\n--" .. BOUNDARY .. "--\r\n"
      return wrk.format("POST", path, headers, body)
   else
      return wrk.format("POST", path, headers, dicom)
   end
end

function done(summary, latency, requests)
   io.write(string.format("RESULT requests=%d duration_us=%d status=%d connect=%d read=%d write=%d timeout=%d "
      .. "p50_us=%d p99_us=%d max_us=%d\n", summary.requests, summary.duration, summary.errors.status,
      summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.timeout,
      latency:percentile(50), latency:percentile(99), latency.max))
end
