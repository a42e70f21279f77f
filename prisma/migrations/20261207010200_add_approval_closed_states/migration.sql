-- An approval follows its call (DESIGN §4): a call sealed before anyone decided closes its approval. The values
-- commit here, before the next migration's trigger can use them.
ALTER TYPE "ApprovalState" ADD VALUE 'cancelled';
ALTER TYPE "ApprovalState" ADD VALUE 'void';
