#!/usr/bin/env python3
# A 23-line ASI v1 client on the standard library, graded by `asi-conformance client -- python3 examples/python-client.py`.
import json, os, time, urllib.error, urllib.parse, urllib.request
BASE, TOKEN, SCENARIO = os.environ["ASI_BASE_URL"], os.environ["ASI_TOKEN"], os.environ.get("ASI_SCENARIO")
def call(path, query, refusals=0):
    url = BASE + path + ("?" + urllib.parse.urlencode(query) if query else "")  # the cursor percent-encoded, as given
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers={"Authorization": "Bearer " + TOKEN})) as res:
            if int(res.headers.get("X-RateLimit-Remaining", 1)) * 10 < int(res.headers.get("X-RateLimit-Limit", 0)):
                time.sleep(0.3)  # under 10% of the pool left: slow down
            return json.load(res)
    except urllib.error.HTTPError as err:
        category = json.load(err).get("error", {}).get("category")  # never the message: its wording may change
        if category == "rate_limited" and refusals < 10:  # wait Retry-After, longer when refused again; the same request
            time.sleep(int(err.headers.get("Retry-After", "1")) * 1.5 ** refusals)
            return call(path, query, refusals + 1)
        if category == "transient" and refusals < 3:  # backoff: 0.25 s, doubling
            time.sleep(0.25 * 2 ** refusals)
            return call(path, query, refusals + 1)
        print("gave up:", err.code, category)  # permanent: fix the request, never send it again as is
page = call("/credits/operations", {"limit": 4, "from": "2026-02-01", "to": "2026-01-01"} if SCENARIO == "permanent" else {"limit": 4})
while page and page.get("next_cursor") is not None:
    page = call("/credits/operations", {"limit": 4, "cursor": page["next_cursor"]})
