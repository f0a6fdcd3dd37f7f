import express from 'express';

// The baseline of the API benchmark: a bare Express hello-world, in a process of its own like the API.
const app = express();
app.get('/', (_req, res) => {
  res.json({ hello: 'world' });
});
const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => {
  console.log('hello-world listening');
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
