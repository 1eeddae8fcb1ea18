/** Customer message templates: the built-in ones, a directory of one's own, and errors that name the file and line. */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_TEMPLATES, deliveredText, loadTemplates, render, windowText } from '../../../src/server/services/notify/templates.js';
import { InputError } from '../../../src/errors.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function templateDir(planned: string, delivered = 'Subject: Done\n\nDone at {{delivered_at}}'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'routeplan-templates-'));
  dirs.push(dir);
  await writeFile(join(dir, 'planned.txt'), planned);
  await writeFile(join(dir, 'delivered.txt'), delivered);
  return dir;
}

const FIELDS = {
  'project.name': 'Boulangerie',
  'project.date': '2026-11-24',
  'stop.name': 'Café',
  'stop.address': '1 rue X',
  window: 'between 08:15 and 08:25',
  previous_window: '',
  delivered_at: '',
  tracking_url: 'https://routes.example.com/track/abc',
};

describe('message templates', () => {
  it('fill the placeholders of the built-in texts', () => {
    const { subject, text } = render(DEFAULT_TEMPLATES.planned, FIELDS);
    expect(subject).toBe('Your delivery on 2026-11-24: between 08:15 and 08:25');
    expect(text).toContain('Your delivery from Boulangerie is planned on 2026-11-24, between 08:15 and 08:25.');
    expect(text).toContain('Follow your delivery on the day: https://routes.example.com/track/abc');
    const revised = render(DEFAULT_TEMPLATES.revised, {
      ...FIELDS,
      window: 'between 10:00 and 11:00',
      previous_window: 'between 08:15 and 08:25',
    });
    expect(revised.subject).toBe('New time for your delivery on 2026-11-24: between 10:00 and 11:00');
    expect(revised.text).toContain('will not come between 08:15 and 08:25 as we wrote:\nit is now expected between 10:00 and 11:00.');
    expect(revised.text).toContain('Follow your delivery: https://routes.example.com/track/abc');
  });

  it('take revised.txt from the directory when it has one, the built-in text when not (a directory made before revised messages)', async () => {
    const old = await loadTemplates(await templateDir('Subject: Hi\n\nSee you {{window}}.'));
    expect(old.revised).toEqual(DEFAULT_TEMPLATES.revised);
    const dir = await templateDir('Subject: Hi\n\nSee you {{window}}, track it at {{tracking_url}}.');
    await writeFile(join(dir, 'revised.txt'), 'Subject: Later: {{window}}\n\nWas {{previous_window}}, now {{window}}: {{tracking_url}}');
    const own = await loadTemplates(dir);
    expect(render(own.planned, FIELDS).text).toBe('See you between 08:15 and 08:25, track it at https://routes.example.com/track/abc.');
    expect(render(own.revised, { ...FIELDS, previous_window: 'between 07:00 and 08:00' }).text).toBe(
      'Was between 07:00 and 08:00, now between 08:15 and 08:25: https://routes.example.com/track/abc',
    );
    await writeFile(join(dir, 'revised.txt'), 'Subject: x\n\n{{eta}}');
    expect(((await loadTemplates(dir).catch((caught: unknown) => caught)) as Error).message).toMatch(
      /revised\.txt:3: unknown placeholder \{\{eta\}\}/,
    );
  });

  it('come from planned.txt and delivered.txt: a Subject line, a blank line, the body (CRLF and a BOM are fine)', async () => {
    const templates = await loadTemplates(
      await templateDir('\uFEFFSubject: Hi {{stop.name}}\r\n\r\nSee you {{ window }} at {{stop.address}}.\r\n'),
    );
    expect(render(templates.planned, FIELDS)).toEqual({ subject: 'Hi Café', text: 'See you between 08:15 and 08:25 at 1 rue X.\n' });
  });

  it('refuse an unknown placeholder, a missing Subject, a missing blank line or a missing file, naming file and line', async () => {
    const cases: [string, RegExp][] = [
      ['Subject: x\n\nHello {{customer.name}}', /planned\.txt:3: unknown placeholder \{\{customer\.name\}\}/],
      ['Hello', /planned\.txt:1: the first line must be "Subject: …"/],
      ['Subject: x\nHello', /planned\.txt:2: a blank line must follow the Subject line/],
    ];
    for (const [text, message] of cases) {
      const error = await loadTemplates(await templateDir(text)).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(InputError);
      expect((error as Error).message).toMatch(message);
    }
    const dir = await templateDir('Subject: x\n\nok');
    await rm(join(dir, 'delivered.txt'));
    expect(((await loadTemplates(dir).catch((caught: unknown) => caught)) as Error).message).toMatch(
      /delivered\.txt: cannot read it \(ENOENT\)/,
    );
  });

  it('never let a field add a header line to the subject', () => {
    const { subject } = render({ subject: 'For {{stop.name}}', body: '' }, { ...FIELDS, 'stop.name': 'Eve\r\nBcc: all@example.com' });
    expect(subject).toBe('For Eve Bcc: all@example.com');
  });

  it('write windows and delivery times plainly', () => {
    expect(windowText(29_700, 30_300)).toBe('between 08:15 and 08:25');
    expect(windowText(90_000, 90_000)).toBe('at 01:00 (+1 day)');
    expect(windowText(null, null)).toBe('during the day');
    expect(deliveredText('2026-11-24T09:41:30Z')).toBe('09:41 UTC on 2026-11-24');
  });
});
