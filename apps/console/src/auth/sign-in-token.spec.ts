import { signInToken } from './sign-in-token';

describe('the first start sign-in link', () => {
  it('takes the token from the fragment and nothing that does not look like one', () => {
    const token = 'Zk9aYm1vVjJqUnpLcVd4Y3BmU0RhQkxqT0ZHdU1uSHE';
    expect(signInToken(`#token=${token}`)).toBe(token);
    expect(signInToken('#token=short')).toBeUndefined();
    expect(signInToken('#token=<script>alert(1)</script>xxxxxxxxxxxxxxxxxx')).toBeUndefined();
    expect(signInToken('')).toBeUndefined();
  });
});
