import { describe, expect, it } from 'vitest';
import { createTestApp } from './test/harness.ts';

describe('route table', () => {
  it('lists every /api route once, without HEAD twins or the docs', async () => {
    const t = await createTestApp();
    try {
      const keys = t.app.routeTable.map((r) => `${r.method} ${r.url}`);
      expect(new Set(keys).size).toBe(keys.length);
      expect(keys).toContain('GET /api/health');
      expect(keys).toContain('POST /api/auth/sign-in');
      expect(keys.some((k) => k.startsWith('HEAD ') || k.includes('/api/docs'))).toBe(false);
    } finally {
      await t.close();
    }
  });
});
