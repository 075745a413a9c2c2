/**
 * The layer rule of eslint.layers.js catches a back-edge: each deliberate one below is an error, and
 * the allowed imports next to it are not. Lints source text at a path inside each workspace with the
 * repository's layer rules (no type information needed for imports).
 */
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { layerRules } from '../eslint.layers.js';

const eslint = new ESLint({
  cwd: process.cwd(),
  overrideConfigFile: true,
  overrideConfig: [{ files: ['**/*.ts', '**/*.tsx'], languageOptions: { parser: tseslint.parser }, plugins: { '@typescript-eslint': tseslint.plugin } }, ...layerRules],
});

async function restricted(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === '@typescript-eslint/no-restricted-imports').map((m) => m.message);
}

describe('layer order (eslint.layers.js)', () => {
  it.each([
    ['packages/contracts/src/x.ts', "import { GuestCall } from '@lobby/call';"],
    ['packages/contracts/src/x.ts', "import { Button } from '@lobby/ui';"],
    ['packages/call/src/x.ts', "import { Button } from '@lobby/ui';"],
    ['packages/call/src/x.ts', "import { store } from '../../../apps/guest/src/app/store.ts';"],
    ['packages/ui/src/x.tsx', "import { apiRequest } from '@lobby/call/http';"],
    ['packages/ui/src/x.tsx', "import { useAgentInCall } from '../../../apps/console/src/features/call/agentInCall.ts';"],
    ['apps/guest/src/x.ts', "import { QueuePanel } from '../../console/src/features/queue/QueuePanel.tsx';"],
    ['apps/console/src/x.ts', "import { store } from '@lobby/guest';"],
    ['apps/server/src/x.ts', "import { GuestCall } from '@lobby/call';"],
    ['apps/widget/src/x.ts', "import { bridge } from '../../guest/src/features/widget/bridge.ts';"],
    ['apps/guest/src/features/x/x.ts', "import { useGuestStore } from '../../app/store.ts';"],
    ['apps/guest/src/journey/x.ts', "import { App } from '../app/App.tsx';"],
    ['apps/console/src/features/x/x.tsx', "import { BASENAME } from '../../app/App.tsx';"],
    ['apps/console/src/state/x.ts', "import { applyFixture } from '../app/fixtures.ts';"],
    ['apps/guest/src/features/x/x.ts', "import { QueuePanel } from '../../../../console/src/features/queue/QueuePanel.tsx';"],
    // the zones inside packages/call
    ['packages/call/src/media/x.ts', "import type { CallPorts } from '../room/ports.ts';"],
    ['packages/call/src/media/janus/x.ts', "import { defaultPorts } from '../../composition.ts';"],
    ['packages/call/src/media/x.ts', "import { Button } from '@lobby/ui';"],
    ['packages/call/src/api/x.ts', "import { GuestCall } from '../guest/guestCall.ts';"],
    ['packages/call/src/xmpp/x.ts', "import { AgentDesk } from '../agent/agentDesk.ts';"],
    ['packages/call/src/ports/x.ts', "import type { MediaSession } from '../media/mediaSession.ts';"],
    ['packages/call/src/room/x.ts', "import { GuestCall } from '../guest/guestCall.ts';"],
    ['packages/call/src/guest/x.ts', "import { AgentDesk } from '../agent/agentDesk.ts';"],
    ['packages/call/src/agent/x.ts', "import type { GuestSnapshot } from '../guest/guestCall.ts';"],
    // the in-call UI layer
    ['packages/call-react/src/x.tsx', "import { GuestCall } from '@lobby/call';"],
    ['packages/call-react/src/x.tsx', "import { useInCall } from '../../../apps/guest/src/state/store.ts';"],
    ['packages/call-react/src/x.tsx', "import { MediaSession } from '../../call/src/media/mediaSession.ts';"],
    ['packages/ui/src/x.tsx', "import { CallBar } from '@lobby/call-react';"],
    ['packages/call/src/x.ts', "import { stageLayout } from '@lobby/call-react';"],
  ])('when %s imports across the layers (%s), then lint fails', async (filePath, source) => {
    expect(await restricted(filePath, source)).toHaveLength(1);
  });

  it.each([
    ['packages/call/src/x.ts', "import { Company } from '@lobby/contracts';"],
    ['packages/ui/src/x.tsx', "import { Company } from '@lobby/contracts';"],
    ['packages/call-react/src/x.tsx', "import type { GuestCall } from '@lobby/call';\nimport { IconButton } from '@lobby/ui';"],
    ['apps/guest/src/x.tsx', "import { CallBar } from '@lobby/call-react';"],
    ['apps/guest/src/x.ts', "import { Button } from '@lobby/ui';\nimport { apiRequest } from '@lobby/call/http';"],
    ['apps/console/src/x.ts', "import { GuestCall } from '@lobby/call';\nimport { Spinner } from '../base/Spinner.tsx';"],
    ['apps/server/src/x.ts', "import { Company } from '@lobby/contracts';"],
    ['apps/guest/src/features/x/x.ts', "import { useGuestStore } from '../../state/store.ts';"],
    ['apps/guest/src/app/App.tsx', "import { CallPage } from './CallPage.tsx';\nimport { ScreenSwitch } from '../features/screens/ScreenSwitch.tsx';"],
    ['apps/console/src/main.tsx', "import { App } from './app/App.tsx';"],
    ['packages/call/src/media/x.ts', "import type { ClockPort } from '../ports/clock.ts';\nimport { ApiError } from '../api/http.ts';"],
    ['packages/call/src/media/janus/x.ts', "import { retry } from '../retry.ts';\nimport { Emitter } from '../../emitter.ts';"],
    ['packages/call/src/ports/x.ts', "import type { JinglePort } from '../xmpp/jingle.ts';"],
    ['packages/call/src/room/x.ts', "import { defaultPorts } from '../composition.ts';\nimport { watchMedia } from '../media/mediaWatch.ts';"],
    ['packages/call/src/guest/x.ts', "import { CallRoom } from '../room/callRoom.ts';\nimport type { CallPorts } from '../ports/callPorts.ts';"],
    ['packages/call/src/agent/x.ts', "import { buildList } from './waitingQueue.ts';\nimport { CallRoom } from '../room/callRoom.ts';"],
  ])('when %s imports down the layers (%s), then lint passes', async (filePath, source) => {
    expect(await restricted(filePath, source)).toEqual([]);
  });
});
