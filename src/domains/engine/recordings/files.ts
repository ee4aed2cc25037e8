import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { dataPaths } from '../../../config/paths.js';
import { recordedSessions } from '../../../platform/nginx/record.js';

/** Where a stream's recording lives, and what it is made from. */
export const recordingFiles = (dataDir: string, streamId: string) => {
  const paths = dataPaths(dataDir);
  return {
    dir: join(paths.recordings, streamId),
    mp4: join(paths.recordings, streamId, 'recording.mp4'),
    /** The replay's HLS (docs/decisions.md, "Replays (issue 33)"): goes with the folder when the recording is deleted. */
    replay: join(paths.recordings, streamId, 'replay'),
    /** nginx-rtmp's recordings of each publish session (`<id>-<unix time>.flv`), oldest first. */
    sessions: (): string[] => recordedSessions(paths.ingest, streamId),
  };
};

export function removeSessions(dataDir: string, streamId: string): void {
  for (const file of recordingFiles(dataDir, streamId).sessions()) rmSync(file, { force: true });
}
