#!/usr/bin/env node
// `npm create @panel/app@latest <folder> -- [--yes] [--edition a|b] [--no-install] [--panel-packages <dir>]`
import { main } from '../src/main.js';

process.exitCode = await main(process.argv.slice(2));
