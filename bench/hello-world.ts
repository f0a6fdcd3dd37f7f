import http from 'node:http';
import express from 'express';
import { createHttpServer } from '../api/http-server';

// The baseline of the API benchmark: a bare Express hello-world, in a process of its own like the API. Its POST
// route is the baseline of the event ingestion benchmark: it parses a JSON body and answers 202. With
// APP_PROTOTYPES=true it is served as the API is (api/http-server.ts), to show what that alone changes.
const app = express();
app.get('/', (_req, res) => {
  res.json({ hello: 'world' });
});
app.post('/', express.json({ limit: '1mb' }), (req, res) => {
  res.status(202).json({ accepted: Array.isArray(req.body) ? req.body.length : 1, duplicates: 0, signals_opened: 0 });
});
const server = process.env.APP_PROTOTYPES === 'true' ? createHttpServer(app) : http.createServer(app);
server.listen(Number(process.env.PORT), '127.0.0.1', () => {
  console.log('hello-world listening');
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
