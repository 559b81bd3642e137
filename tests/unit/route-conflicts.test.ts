import { describe, expect, it } from 'vitest';
import { assertNoShadowing, type OwnedRoute } from '../../core/http/route-conflicts.js';

const core = (method: string, path: string): OwnedRoute => ({ owner: 'the core', method, path });
const plugin = (name: string, method: string, path: string): OwnedRoute => ({ owner: `plugin ${name}`, method, path });

const CORE = [core('GET', '/tags/:id'), core('GET', '/tags/list'), core('PUT', '/tags/:id'), core('GET', '/tickets/:id')];

describe('plugin routes beside the core', () => {
  it('a plugin may narrow a core route: a literal where the core has a parameter (plugins are mounted first)', () => {
    expect(() => assertNoShadowing(CORE, [plugin('kanban', 'GET', '/tags/kanban')])).not.toThrow();
    expect(() => assertNoShadowing(CORE, [plugin('kanban', 'PUT', '/tags/kanban')])).not.toThrow();
  });

  it('refuses a plugin route equal to a core route, or wider than one (it would take the core’s requests)', () => {
    expect(() => assertNoShadowing(CORE, [plugin('a', 'GET', '/tickets/:ticketId')])).toThrow('plugin a: route GET /api/tickets/:ticketId shadows GET /api/tickets/:id of the core');
    expect(() => assertNoShadowing(CORE, [plugin('a', 'GET', '/tags/list')])).toThrow('shadows GET /api/tags/list of the core');
    expect(() => assertNoShadowing([core('GET', '/files/list')], [plugin('a', 'GET', '/files/:id')])).toThrow('shadows GET /api/files/list of the core');
    expect(() => assertNoShadowing([core('GET', '/a/:x/c')], [plugin('a', 'GET', '/a/b/:y')])).toThrow('shadows GET /api/a/:x/c of the core');
  });

  it('between plugins any overlap is refused, narrowing or not', () => {
    expect(() => assertNoShadowing([], [plugin('a', 'GET', '/boards/:id'), plugin('b', 'GET', '/boards/mine')])).toThrow(
      'plugin b: route GET /api/boards/mine shadows GET /api/boards/:id of plugin a',
    );
  });
});
