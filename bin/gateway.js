#!/usr/bin/env node
// Runs the compiled CLI; `npm install` builds dist/ (the `prepare` script).
import('../dist/cli/main.js').catch((error) => {
  if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/cli/main.js')) {
    console.error('switchyard is not built yet: run `npm install` (or `npm run build`) in the package folder.');
    process.exit(1);
  }
  throw error;
});
