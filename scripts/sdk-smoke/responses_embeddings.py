"""Python SDK smoke run against the sample gateway: Responses (JSON, stream, cut stream) and embeddings."""
import json, os, urllib.request
import openai
base = os.environ.get("BATON", "http://127.0.0.1:9080/baton/v1")
sim = "http://127.0.0.1:8089/__sim"
def sim_call(method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    urllib.request.urlopen(urllib.request.Request(sim + path, data=data, method=method)).read()
client = openai.OpenAI(base_url=base, api_key="baton-demo-key", max_retries=0)

sim_call("POST", "/reset")
sim_call("PUT", "/accounts/primary/default", {"type": "overloaded"})
r = client.responses.create(model="demo", input="Say hello.")
print("responses.create:", r.status, repr(r.output_text), "connection=" + str(r.model_extra.get("connection")))

types, text = [], ""
with client.responses.stream(model="mixed", input="Say hello.") as stream:
    for event in stream:
        types.append(event.type)
        if event.type == "response.output_text.delta":
            text += event.delta
    final = stream.get_final_response()
print("responses stream (mixed, primary overloaded -> claude):", repr(text), types[0], "...", types[-1], final.status)

sim_call("POST", "/reset")
urllib.request.urlopen(urllib.request.Request(base + "/connections/primary/restore", method="POST",
                       headers={"Authorization": "Bearer baton-demo-admin-key"})).read()  # earlier failures parked it
sim_call("PUT", "/accounts/primary/default", {"type": "reply", "text": "one two three four five six seven", "cut_after": 6})
seen = []
try:
    for event in client.responses.create(model="demo", input="Count.", stream=True):
        seen.append(event.type)
    print("cut stream: ended WITHOUT an error after", len(seen), "events, last", seen[-1])
except openai.APIError as e:
    print("cut stream: raised", type(e).__name__, repr(e.message), "after", len(seen), "events; completed seen:",
          "response.completed" in seen)

sim_call("POST", "/reset")
sim_call("PUT", "/accounts/primary/default", {"type": "server_error"})
e1 = client.embeddings.create(model="text-embedding-3-small", input=["first", "second"])
direct = openai.OpenAI(base_url="http://127.0.0.1:8089/standby/v1", api_key="unused", max_retries=0)
d = direct.embeddings.create(model="text-embedding-3-small", input=["first", "second"])
print("embeddings:", len(e1.data), "vectors of", len(e1.data[0].embedding), "dims, connection=" + str(e1.model_extra.get("connection")),
      "same as the standby account directly:", [x.embedding for x in e1.data] == [x.embedding for x in d.data],
      "usage", e1.usage.model_dump_json())
sim_call("POST", "/reset")
