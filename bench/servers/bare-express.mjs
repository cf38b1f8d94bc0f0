// The baseline: the smallest Express JSON handler, on the same Express as Margin.
import express from 'express';

const app = express();
app.get('/json', (_req, res) => {
  res.json({ status: 'ok' });
});
const server = app.listen(0, '127.0.0.1', () => {
  console.log(`ready http://127.0.0.1:${server.address().port}/json`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
