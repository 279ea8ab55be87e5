// Parsing of CLI option values, with messages a person can act on.
import { InvalidArgumentError } from 'commander';

export function port(value: string): number {
  const n = Number(value);
  if (!/^[0-9]{1,5}$/.test(value) || n > 65535) throw new InvalidArgumentError('expected a port number from 0 to 65535');
  return n;
}

export function positiveInt(max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^[0-9]+$/.test(value) || n < 1 || n > max) throw new InvalidArgumentError(`expected a whole number from 1 to ${max}`);
    return n;
  };
}
