// Node SDK smoke run against the sample gateway: Responses (JSON, stream, cut stream) and embeddings.
import OpenAI from 'openai';
const base = process.env.BATON ?? 'http://127.0.0.1:9080/baton/v1';
const sim = 'http://127.0.0.1:8089/__sim';
const client = new OpenAI({ baseURL: base, apiKey: 'baton-demo-key', maxRetries: 0 });
const put = (path, body) => fetch(sim + path, { method: 'PUT', body: JSON.stringify(body) });
const post = (path, body) => fetch(sim + path, { method: 'POST', body: body ? JSON.stringify(body) : undefined });

await post('/reset');
await put('/accounts/primary/default', { type: 'overloaded' });
const r = await client.responses.create({ model: 'demo', input: 'Say hello.' });
console.log('responses.create:', r.status, JSON.stringify(r.output_text), 'connection=' + r.connection);

const stream = await client.responses.create({ model: 'mixed', input: 'Say hello.', stream: true });
const types = [];
let text = '';
for await (const event of stream) {
  types.push(event.type);
  if (event.type === 'response.output_text.delta') text += event.delta;
}
console.log('responses stream (mixed, primary overloaded -> claude):', JSON.stringify(text), types[0], '...', types.at(-1));

await post('/reset');
const admin = { Authorization: 'Bearer baton-demo-admin-key' };
await fetch(base + '/connections/primary/restore', { method: 'POST', headers: admin }); // earlier failures parked it
await put('/accounts/primary/default', { type: 'reply', text: 'one two three four five six seven', cut_after: 6 });
const seen = [];
try {
  const cut = await client.responses.create({ model: 'demo', input: 'Count.', stream: true });
  for await (const event of cut) seen.push(event.type);
  console.log('cut stream: ended WITHOUT an error after', seen.length, 'events, last', seen.at(-1));
} catch (e) {
  console.log('cut stream: threw', e.constructor.name, JSON.stringify(e.message), 'after', seen.length, 'events; completed seen:', seen.includes('response.completed'));
}

await post('/reset');
await put('/accounts/primary/default', { type: 'server_error' });
const e1 = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['first', 'second'] });
const e2 = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['first', 'second'], encoding_format: 'float' });
const direct = new OpenAI({ baseURL: 'http://127.0.0.1:8089/standby/v1', apiKey: 'unused', maxRetries: 0 });
const d = await direct.embeddings.create({ model: 'text-embedding-3-small', input: ['first', 'second'] });
const d2 = await direct.embeddings.create({ model: 'text-embedding-3-small', input: ['first', 'second'], encoding_format: 'float' });
const vectors = r => JSON.stringify(r.data.map(x => x.embedding));
const same = vectors(e1) === vectors(d) && vectors(e2) === vectors(d2); // base64 with base64, floats with floats
console.log('embeddings:', e1.data.length, 'vectors of', e1.data[0].embedding.length, 'dims, connection=' + e1.connection,
  'same as the standby account directly:', same, 'usage', JSON.stringify(e1.usage));
await post('/reset');
