// `npm run db:create-admin`: for a production install, where nobody reads `npm start`'s first-start banner.
import { bootstrapAdmin, createPrismaClient } from '@fleet/db';
import { loadDbToolsConfig } from './config';

async function main(): Promise<void> {
  const config = loadDbToolsConfig();
  const prisma = createPrismaClient(config.appUrl);
  try {
    const admin = await bootstrapAdmin(prisma, config.adminEmail);
    if (!admin) {
      console.log('operators exist already: no key created (create more keys through the API)');
      return;
    }
    console.log(`admin ${admin.email} created; API key (shown once): ${admin.apiKey}`);
  } finally {
    await prisma.$disconnect();
  }
}

main().catch((err: Error) => {
  console.error(`db:create-admin failed: ${err.message}`);
  process.exit(1);
});
