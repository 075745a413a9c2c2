import { describe, expect, it } from 'vitest';
import { DUMMY_HASH, hashPassword, verifyPassword } from '../../src/services/passwords.ts';

describe('passwords', () => {
  it('when a password is hashed, then only that password verifies and the hash is salted scrypt', async () => {
    const hash = await hashPassword('correct horse');
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('wrong horse', hash)).toBe(false);
    expect(await hashPassword('correct horse')).not.toBe(hash);
  });

  it('when the stored hash is the dummy or malformed, then nothing verifies', async () => {
    expect(await verifyPassword('', DUMMY_HASH)).toBe(false);
    expect(await verifyPassword('x', 'plain')).toBe(false);
  });
});
