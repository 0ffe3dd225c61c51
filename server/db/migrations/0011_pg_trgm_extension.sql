-- Trigram indexes for the case-insensitive, partial full-name search (customer_trgm_index).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
