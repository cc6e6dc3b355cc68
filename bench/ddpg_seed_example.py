"""The seed page's DDPG example for 15 epochs with seeded envs (the `#| slow` cells of nbs/10_agents.ddpg),
printing the rolling reward at epoch 15, the deterministic 10-episode return and the epoch table.

    .venv/bin/python bench/ddpg_seed_example.py 0     # one seed, about 3.5 minutes on one core
"""
import sys, time, torch, numpy as np
from fastcore.all import L
from fastrl.loggers.core import ProgressBarLogger, EpocherCollector, BatchCollector
from fastrl.data.block import DataBlock
from fastrl.envs.gym import GymTransformBlock
from fastrl.agents.ddpg import Actor, Critic, DDPGAgent, DDPGLearner
from fastrl.learner.core import evaluate_agent
torch.set_num_threads(1)
seed = int(sys.argv[1])
logger_base = ProgressBarLogger(epoch_on_pipe=EpocherCollector, batch_on_pipe=BatchCollector, show=False)
torch.manual_seed(seed)
actor, critic = Actor(3,1), Critic(3,1)
agent = DDPGAgent(actor,[logger_base],max_steps=5000,min_epsilon=0.1)
dls = L(DataBlock(GymTransformBlock(agent=agent,nsteps=2,nskips=2,firstlast=True,seed=seed)).dataloaders(['Pendulum-v1']))
learner = DDPGLearner(actor,critic,dls,logger_bases=[logger_base],bs=128,max_sz=20_000,nsteps=2,batches=1000)
t = time.time(); learner.fit(15); dt = time.time() - t
rets = evaluate_agent(agent, 'Pendulum-v1', episodes=10)
print(f"seed {seed}: rolling reward at epoch 15 {logger_base.df['rolling_reward'].iloc[-1]:.1f}, "
      f"deterministic 10-episode return {np.mean(rets):.1f}, fit {dt:.0f}s ({dt/15:.1f} ms/batch)")
print(logger_base.df.to_string())
