#!/usr/bin/env node
import { runCli } from './run-cli.js';
import { runMain } from './run-main.js';

runMain(runCli);
