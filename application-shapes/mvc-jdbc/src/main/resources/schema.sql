CREATE TABLE IF NOT EXISTS orders (id BIGINT PRIMARY KEY, item VARCHAR(64));
MERGE INTO orders KEY (id) VALUES (1, 'book'), (2, 'lamp');
