import type { SearchDocument } from '../../src/search/types.js';

/**
 * A small mixed corpus: four long pages on a topic each (manual pages, abridged) among short,
 * off-topic documents that repeat a query word, as package lists, tag pages and link farms do.
 * BM25 with the collection's average length ranks such a short page above the long page that
 * answers the query: the short ones drag the average down until every long page counts as
 * much too long (docs/benchmarks.md, "Search").
 */
const LONG: SearchDocument[] = [
  {
    url: 'https://man.example/logrotate',
    title: 'logrotate',
    content:
      'logrotate is designed to ease administration of systems that generate large numbers of log files. ' +
      'It allows automatic rotation, compression, removal, and mailing of log files. Each log file may be ' +
      'handled daily, weekly, monthly, or when it grows too large. Normally, logrotate is run as a daily cron ' +
      'job. It will not modify a log multiple times in one day unless the criterion for that log is based on ' +
      "the log's size and logrotate is being run multiple times each day. Old versions of log files are " +
      'compressed with gzip by default; the compress directive turns it on and delaycompress postpones ' +
      'compression of the previous log file to the next rotation cycle. Rotated files are removed once ' +
      'they have been rotated count times, and olddir moves them to another directory.',
  },
  {
    url: 'https://man.example/tar',
    title: 'tar',
    content:
      'GNU tar is an archiving program designed to store multiple files in a single file (an archive), and ' +
      'to manipulate such archives. The archive can be either a regular file or a device (e.g. a tape drive, ' +
      'hence the name of the program, which stands for tape archiver), which can be located either on the ' +
      'local or on a remote machine. Options select compression: -z filters the archive through gzip, -j ' +
      'through bzip2 and -J through xz. Members are extracted with -x and listed with -t; -c creates a new ' +
      'archive and -r appends files to the end of an archive.',
  },
  {
    url: 'https://man.example/rsync',
    title: 'rsync',
    content:
      'rsync is a fast and extraordinarily versatile file copying tool. It can copy locally, to/from another ' +
      'host over any remote shell, or to/from a remote rsync daemon. It offers a large number of options that ' +
      'control every aspect of its behavior and permit very flexible specification of the set of files to be ' +
      'copied. It is famous for its delta-transfer algorithm, which reduces the amount of data sent over the ' +
      'network by sending only the differences between the source files and the existing files in the ' +
      'destination. rsync finds files that need to be transferred using a quick check algorithm that looks ' +
      'for files that have changed in size or in last-modified time.',
  },
  {
    url: 'https://man.example/crontab',
    title: 'crontab',
    content:
      'A crontab file contains instructions for the cron daemon of the general form: run this command at ' +
      'this time on this date. Each user has their own crontab, and commands in any given crontab will be ' +
      'executed as the user who owns the crontab. Blank lines and leading spaces and tabs are ignored. Lines ' +
      'whose first non-space character is a hash sign are comments. The time and date fields are minute, ' +
      'hour, day of month, month and day of week; a field may be an asterisk, which always stands for ' +
      'first-last. Commands are executed by cron when the minute, hour, and month of year fields match the ' +
      'current time.',
  },
];

const SHORT = [
  'Log cabin kits',
  'log log log',
  'Ship log',
  'Old log',
  'Files',
  'Old files',
  'Compress',
  'Compress compress',
  'Rotate',
  'Rotate the image',
  'Daily log',
  'Log in',
  'Large files',
  'Copy files',
  'Tape',
  'Tape measure',
  'Remote control',
  'Remote files',
  'Daily news',
  'Weekly news',
  'Archive',
  'Old archive',
  'Time of day',
  'Time and date',
  'Date night',
  'Cron',
  'Job offers',
  'Job board',
  'Network',
  'Fast copy',
  'Copy copy',
  'Size chart',
  'Gzip',
  'Comments',
  'Command line',
  'User',
  'Directory',
  'Old directory',
  'Delta',
  'Rotation',
].flatMap((title, i) => [0, 1, 2].map((copy) => ({ title, i, copy })));

/** The long pages and 120 short distractors (each short title on three sites). */
export const MIXED_CORPUS: SearchDocument[] = [
  ...LONG,
  ...SHORT.map(({ title, i, copy }) => ({
    url: `https://short${copy}.example/${i}`,
    title,
    content: title.toLowerCase(),
  })),
];

/** Queries and the long page that answers each. */
export const MIXED_QUERIES: [string, string][] = [
  ['rotate and compress old log files', 'https://man.example/logrotate'],
  ['archive files on tape', 'https://man.example/tar'],
  ['copy files to a remote host fast', 'https://man.example/rsync'],
  ['run a command at a time and date', 'https://man.example/crontab'],
];
