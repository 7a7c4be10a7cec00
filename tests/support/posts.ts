// Posts through the real handler.
import { call } from './invoke';
import { makeUsers, type TestUser } from './factories';
import { handler as create } from '../../functions/posts/create';

let n = 0;
export async function makePost(author: TestUser, caption = `post ${++n}`): Promise<{ _id: string; [k: string]: unknown }> {
  const res = await call(create, 'POST /posts/create', {
    token: author.token,
    body: { image: JSON.stringify([`https://cdn.example.test/${n}.jpg`]), caption },
  });
  if (res.status !== 201) throw new Error(`create post failed: ${res.status} ${res.text}`);
  return res.body.post;
}

type Tuple<N extends number, R extends TestUser[] = []> = R['length'] extends N ? R : Tuple<N, [...R, TestUser]>;

/** n fresh users as a tuple, so that destructuring them is typed. */
export async function users<N extends number>(n: N): Promise<Tuple<N>> {
  return (await makeUsers(n)) as Tuple<N>;
}
