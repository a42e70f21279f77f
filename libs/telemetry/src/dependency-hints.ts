// What to tell a newcomer when a dependency is down on a machine of the kind this project runs on.
export const HOW_TO_START = {
  postgres: 'start Postgres: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start',
  redis:
    'start Redis: redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no',
  broker: 'start the broker: npm start (or node dist/apps/broker/src/main.js)',
} as const;
