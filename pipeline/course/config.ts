// Course configuration: `.codelabgen/config.yaml`, validated; defaults when the file is absent.
import { existsSync } from 'node:fs';
import type { Config } from '../../content-schemas/index.ts';
import { ConfigParser, parseData, parseDataFile } from '../../content-schemas/fast.ts';
import { ARTIFACTS, abs, type Course } from './course.ts';

export function loadConfig(course: Course): Config {
  const file = abs(course, ARTIFACTS.config);
  if (!existsSync(file)) return parseData(ConfigParser, {}, ARTIFACTS.config);
  return parseDataFile(ConfigParser, file, ARTIFACTS.config);
}
