// The notice e-mails of two-factor sign-in (contract section 17): enabling and disabling queue
// one in their transaction, sent from the change stream to the local mail server.
import '../support/own-stream-table';
import { call } from '../support/invoke';
import { makeUser } from '../support/factories';
import { startTestStream, type TestStream } from '../support/stream';
import { waitForMails } from '../support/mail';
import { withTwoFactor } from '../support/two-factor';
import { handler as disable } from '../../functions/auth/two-factor-disable';

let stream: TestStream;
beforeAll(() => { stream = startTestStream(); });
afterAll(() => stream.poller.stop());

it('sends a notice when two-factor sign-in is turned on and another when it is turned off, holding no secret', async () => {
  const u = await makeUser();
  const { secret, recoveryCodes } = await withTwoFactor(u);
  // The registration's verification e-mail, then the notice.
  const on = (await waitForMails(u.email, 2)).find((m) => /Two-factor sign-in is on/.test(m.subject));
  expect(on).toBeDefined();
  expect(on!.body.text).toContain(`@${u.username}`);
  expect(on!.body.html).toContain('Aperture');
  expect((await call(disable, 'POST /auth/2fa/disable', { token: u.token, body: { password: u.password, code: recoveryCodes[0] } })).status).toBe(200);
  const mails = await waitForMails(u.email, 3);
  expect(mails.map((m) => m.subject)).toEqual(expect.arrayContaining([expect.stringMatching(/Two-factor sign-in is off/)]));
  const sent = JSON.stringify(mails);
  for (const s of [secret, ...recoveryCodes]) expect(sent).not.toContain(s);
  expect(stream.deadLetters).toEqual([]);
});
