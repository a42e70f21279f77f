#!/usr/bin/env node
import { resolve } from 'node:path';
import { invocationDir } from './config';
import { runVerify } from './verify-command';

process.exitCode = runVerify(
  process.argv.slice(2),
  { out: (line) => console.log(line), err: (line) => console.error(line) },
  (path) => resolve(invocationDir(), path),
);
