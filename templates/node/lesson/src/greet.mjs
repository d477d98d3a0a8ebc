// The lesson's example code: the read-along shows these lines, the test checks them.
export function greet(name) {
  if (name.trim() === '') {
    throw new RangeError('greet: name must not be empty');
  }
  return `Hello, ${name}!`;
}
