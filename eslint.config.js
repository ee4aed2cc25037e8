import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test-output/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/cli/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Config is read once (src/config) and injected; only the CLI reads the environment.',
        },
      ],
    },
  },
  {
    // One place starts processes: src/platform/process (run, supervisor, detached); ffmpeg and nginx argv come from pure builders.
    files: ['src/**/*.ts', 'commands/**/*.ts'],
    ignores: ['src/platform/process/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['node:child_process', 'child_process', 'execa'].map((name) => ({
            name,
            message: 'Processes start only through src/platform/process (run, Supervisor, spawnDetached).',
          })),
        },
      ],
    },
  },
  {
    // One clock: wall time is read from the injected Clock, so tests can move it; durations and deadlines use the monotonic performance.now().
    files: ['src/**/*.ts', 'commands/**/*.ts'],
    ignores: ['src/core/clock.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message:
            'Wall time comes from the injected Clock (src/core/clock.ts); for durations and deadlines use performance.now().',
        },
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'Wall time comes from the injected Clock (src/core/clock.ts): clock.now().',
        },
      ],
    },
  },
  {
    files: ['bin/**/*.js', 'eslint.config.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    // The hosted player's script runs in browsers as a classic script (no build step).
    files: ['appliance/player/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: Object.fromEntries(
        [
          'window',
          'document',
          'fetch',
          'crypto',
          'setTimeout',
          'clearTimeout',
          'setInterval',
          'location',
          'history',
          'URL',
          'URLSearchParams',
          'localStorage',
          'EventSource',
          'Option',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
  {
    // The operator dashboard's script: a classic script too, beside uPlot's.
    files: ['appliance/dashboard/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: Object.fromEntries(
        [
          'document',
          'fetch',
          'setTimeout',
          'clearTimeout',
          'location',
          'history',
          'sessionStorage',
          'Node',
          'uPlot',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
  {
    // The publish page's script also uses the camera and WebRTC.
    files: ['appliance/player/publish.js'],
    languageOptions: {
      globals: Object.fromEntries(
        ['navigator', 'location', 'URL', 'URLSearchParams', 'Option', 'RTCPeerConnection', 'RTCRtpSender'].map(
          (name) => [name, 'readonly'],
        ),
      ),
    },
  },
);
