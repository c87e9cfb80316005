import { DomUtils, parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { type AdminPage, adminPageHtml } from '../../../worker/platform/http/admin-page';

const PAGE: AdminPage = {
  path: '/admin/things',
  title: 'Things',
  header: '<span id="as-of"></span>',
  headScripts: ['/admin/things/library.js', '/admin/things/more.js'],
  body: '  <div id="things" hidden><section><h2>List</h2></section></div>\n',
};

const parse = (page: AdminPage) => parseDocument(adminPageHtml(page));
const all = (doc: ReturnType<typeof parse>, name: string) => DomUtils.getElementsByTagName(name, doc.children);
const one = (doc: ReturnType<typeof parse>, name: string) => all(doc, name)[0]!;
type Element = ReturnType<typeof one>;
/** The elements directly inside one, without the text between them. */
const childElements = (parent: Element) => parent.children.filter((n): n is Element => 'attribs' in n);

describe('adminPageHtml', () => {
  it('shows the title as text in <title> and <h1>, never as markup', () => {
    const title = 'Riders </title><script>alert(1)</script> & "co"';
    const doc = parse({ ...PAGE, title });
    expect(DomUtils.textContent(one(doc, 'title'))).toBe(title);
    expect(DomUtils.textContent(one(doc, 'h1'))).toBe(title);
    expect(all(doc, 'script').map((s) => s.attribs.src)).not.toContain(undefined);
  });

  it('keeps a path that holds a quote inside its attribute', () => {
    const path = '/admin/x"><script>alert(1)</script>';
    const doc = parse({ ...PAGE, path, headScripts: [] });
    expect(one(doc, 'link').attribs.href).toBe(`${path}/styles.css`);
    expect(all(doc, 'script').map((s) => s.attribs.src)).toEqual([`${path}/app.js`]);
  });

  it('loads the stylesheet and the head scripts in order in the head, and the page script last in the body', () => {
    const doc = parse(PAGE);
    const head = one(doc, 'head');
    expect(DomUtils.getElementsByTagName('link', head).map((l) => [l.attribs.rel, l.attribs.href])).toEqual([
      ['stylesheet', '/admin/things/styles.css'],
    ]);
    expect(DomUtils.getElementsByTagName('script', head).map((s) => s.attribs.src)).toEqual(PAGE.headScripts);
    const bodyElements = childElements(one(doc, 'body'));
    expect(bodyElements.map((e) => e.name)).toEqual(['header', 'main', 'script']);
    expect(bodyElements.at(-1)!.attribs.src).toBe('/admin/things/app.js');
  });

  it('has no inline script, style element, style attribute or event handler attribute', () => {
    const doc = parse(PAGE);
    for (const element of DomUtils.findAll(() => true, doc.children)) {
      expect(element.name).not.toBe('style');
      if (element.name === 'script') expect(DomUtils.textContent(element)).toBe('');
      for (const name of Object.keys(element.attribs))
        expect(name === 'style' || name.startsWith('on'), name).toBe(false);
    }
  });

  it('holds what the sign-in script drives, the header markup before sign-out and the page body after the form', () => {
    const doc = parse(PAGE);
    const byId = (id: string) => DomUtils.getElementById(id, doc.children);
    expect(byId('sign-in')?.name).toBe('form');
    expect(byId('sign-out')?.attribs.hidden).toBe('');
    expect(byId('error')?.attribs.role).toBe('alert');
    expect(childElements(one(doc, 'header')).map((e) => e.attribs.id || e.name)).toEqual(['h1', 'as-of', 'sign-out']);
    const main = childElements(one(doc, 'main'));
    expect(main.map((e) => e.attribs.id)).toEqual(['error', 'sign-in', 'things']);
  });
});
