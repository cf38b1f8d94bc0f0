export {
  type FakeHandler,
  type FakeHttpServer,
  type FakeReply,
  type FakeRequest,
  startFakeHttpServer,
} from './fake-http-server.js';
