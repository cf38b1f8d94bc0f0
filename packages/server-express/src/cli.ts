#!/usr/bin/env node
import { runMain } from '@margin/cli';
import { runCli } from './cli/host-program.js';

runMain(runCli);
