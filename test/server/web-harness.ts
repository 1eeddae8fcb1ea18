/** A browser's side of the web application for tests: a web root of stand-in pages, sign-in, cookies. */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';

/**
 * A web root shaped like dist/web/ (the real pages are the front end's build): each page names
 * itself so a test can tell which one it got.
 */
export async function makeWebRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'routeplan-web-'));
  await mkdir(join(root, 'assets', 'images'), { recursive: true });
  for (const page of ['index', 'project', 'print']) {
    await writeFile(join(root, `${page}.html`), `<!doctype html><title>${page} page</title><script src="/assets/app.js"></script>`);
  }
  await writeFile(join(root, 'assets', 'app.js'), 'document.title = "app";\n');
  await writeFile(join(root, 'assets', 'app.css'), 'body { margin: 0 }\n');
  await writeFile(join(root, 'assets', 'images', 'marker.png'), Buffer.from('89504e470d0a1a0a', 'hex'));
  await writeFile(join(root, 'secret.txt'), 'outside the assets directory');
  return root;
}

export interface WebReply {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

export interface WebCall {
  cookie?: string;
  csrf?: string;
  origin?: string;
  authorization?: string;
  /** A JSON body (sent as application/json). */
  json?: unknown;
  /** A form body (sent as application/x-www-form-urlencoded). */
  form?: Record<string, string>;
}

/** One request as a browser would send it, without following redirects. */
export async function call(base: string, method: string, path: string, options: WebCall = {}): Promise<WebReply> {
  const headers: Record<string, string> = {};
  if (options.cookie !== undefined) headers.cookie = options.cookie;
  if (options.csrf !== undefined) headers['x-csrf-token'] = options.csrf;
  if (options.origin !== undefined) headers.origin = options.origin;
  if (options.authorization !== undefined) headers.authorization = options.authorization;
  let body: string | undefined;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] = 'application/json';
  } else if (options.form !== undefined) {
    body = new URLSearchParams(options.form).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  const response = await fetch(`${base}${path}`, { method, headers, redirect: 'manual', ...(body !== undefined ? { body } : {}) });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // left as text
  }
  return { status: response.status, headers: response.headers, text, body: parsed };
}

/** The `name=value` of the session cookie a reply sets, for the next request's Cookie header. */
export function sessionCookieOf(reply: WebReply): string | null {
  const setCookie = reply.headers.getSetCookie().find((line) => line.startsWith('routeplan_session='));
  return setCookie ? setCookie.split(';')[0]! : null;
}

export interface SignedIn {
  cookie: string;
  csrf: string;
}

/** Signs in with `key` through the form, then reads the CSRF token as the page does. */
export async function signIn(base: string, key: string): Promise<SignedIn> {
  const login = await call(base, 'POST', '/login', { form: { key } });
  const cookie = sessionCookieOf(login);
  if (login.status !== 303 || cookie === null) throw new Error(`sign-in failed: ${login.status} ${login.text}`);
  const session = await call(base, 'GET', '/session', { cookie });
  return { cookie, csrf: session.body.csrfToken as string };
}

/** A raw GET with the path exactly as written (fetch would normalise `..` away). */
export function rawGet(base: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${base}/`, { path, method: 'GET' }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
    request.end();
  });
}
