// Every test runs in UTC, whatever the machine says.
process.env['TZ'] = 'UTC';
